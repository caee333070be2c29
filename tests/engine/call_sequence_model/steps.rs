//! One op's step: the tool call (or external write) it makes, and what the model says its
//! response and effects must be.

use super::case::{observe, path_of, snapshot, unchanged, Snapshot, REFUSED};
use super::driver::{call, FailPlan};
use super::generator::{raw, Op, NEW_TEXTS, PATHS};
use super::model::{DocM, Model, SelM};
use super::stat;
use super::text::{
    char_to_byte, edited_regions, normalized, occurrences, perturb_lines, region_matches, tier_laws, tier_of, windows, TIERS,
};
use crate::common::{cuts_a_word, utf16_to_byte, Host};
use agentpad::response::PendingChangeView;
use agentpad::{Response, Status, WorkflowState};
use serde_json::json;
use std::collections::BTreeSet;

pub(super) fn step(h: &mut Host, m: &mut Model, op: &Op) -> Result<(), String> {
    let before = snapshot(h, m);
    let state = m.state();
    // The first editing call after an unreported external change is answered with
    // `ExternalConflict` and not run.
    let unrep = m.unreported && !m.conflicts.is_empty();
    match op {
        Op::Exact { doc, a, b, lines, relist, new, show_all, match_id, .. } => {
            let path = path_of(*doc, m);
            let (path, needle) = match (&m.sel, relist) {
                (Some(s), true) if !s.fuzzy => (s.path.clone(), s.needle.clone()),
                _ => {
                    let draft = &m.docs[&path].draft;
                    let chars = draft.chars().count();
                    if chars == 0 {
                        return Ok(());
                    }
                    let needle = if *lines {
                        let ls: Vec<&str> = draft.split('\n').collect();
                        let start = (*a % ls.len() as u64) as usize;
                        let end = (start + 1 + (*b as usize % 2)).min(ls.len());
                        ls[start..end].join("\n")
                    } else {
                        let s = (*a % chars as u64) as usize;
                        let e = (s + 1 + *b as usize).min(chars);
                        draft[char_to_byte(draft, s)..char_to_byte(draft, e)].to_string()
                    };
                    (path, needle)
                }
            };
            if needle.is_empty() || occurrences(&m.docs[&path].draft, &needle).is_empty() {
                return Ok(());
            }
            let new_text = NEW_TEXTS[(*new % NEW_TEXTS.len() as u64) as usize].to_string();
            let occ = occurrences(&m.docs[&path].draft, &needle);
            let fresh = !m.sel.as_ref().is_some_and(|s| s.path == path && s.needle == needle && !s.fuzzy);
            if let (Some(k), true, true) = (match_id, fresh, occ.len() > 1) {
                let idx = (*k % (occ.len().min(26) as u64 + 1)) as usize;
                let letter = ((b'A' + idx as u8) as char).to_string();
                let d = call(
                    h,
                    "memo_replace",
                    json!({"path": path, "old_text": needle, "new_text": new_text, "match_id": letter}),
                    FailPlan::default(),
                )?;
                let r = d.r;
                observe(h, m, &r)?;
                if conflict_first(unrep, &r)? {
                    return unchanged(&before, h, m, &r);
                }
                if r.status == Status::StaleReference && r.summary.contains("is no longer open") {
                    // A letter for a search listed before, whose listing an edit, commit or revert
                    // ended: never a position in today's matches; they are listed anew, A first
                    // (docs/workflow.md#visible-tools).
                    stat("match_id of an ended listing");
                    let draft = m.docs[&path].draft.clone();
                    let shown: Vec<(String, usize, usize, bool)> = r
                        .candidates
                        .iter()
                        .map(|c| (c.id.clone(), utf16_to_byte(&draft, c.context_start), utf16_to_byte(&draft, c.context_end), c.stale))
                        .collect();
                    law!(
                        shown
                            .iter()
                            .enumerate()
                            .all(|(i, c)| c.0 == ((b'A' + i as u8) as char).to_string() && draft.get(c.1..c.2) == Some(needle.as_str())),
                        "the new listing: {}",
                        r.markdown
                    );
                    let len = (r.candidates.len() < 5).then_some(r.candidates.len());
                    m.sel = Some(SelM { path: path.clone(), needle, new_text, awaiting: true, fuzzy: false, shown, len });
                    return Ok(());
                }
                if idx >= occ.len().min(26) {
                    stat("match_id out of range");
                    law!(r.status == Status::InvalidArguments, "match_id {letter} of {} matches gave {:?}", occ.len(), r.status);
                    return unchanged(&before, h, m, &r);
                }
                if new_text == needle {
                    law!(r.status == Status::NoOp, "match_id onto the same text gave {:?}", r.status);
                } else if !(r.status == Status::Blocked && r.summary.contains("(A–Z)")) {
                    stat("match_id pick");
                    law!(r.status == Status::Success, "match_id {letter} gave {:?}: {}", r.status, r.markdown);
                    let dm = m.docs.get_mut(&path).unwrap();
                    dm.draft.replace_range(occ[idx]..occ[idx] + needle.len(), &new_text);
                    m.staged(&path);
                } else {
                    return unchanged(&before, h, m, &r);
                }
                // A direct pick without a listing makes this search the selection (not awaiting).
                m.sel = Some(SelM { path: path.clone(), needle, new_text, awaiting: false, fuzzy: false, shown: Vec::new(), len: None });
                return Ok(());
            }
            let d = call(
                h,
                "memo_replace",
                json!({"path": path, "old_text": needle, "new_text": new_text, "show_all_matches": show_all}),
                FailPlan::default(),
            )?;
            exact_outcome(h, m, &before, state, unrep, &path, &needle, &new_text, *show_all, d.r)?;
        }
        Op::Fuzzy { doc, line, count, perturb, gutter, final_break, fragment, .. } => {
            let path = path_of(*doc, m);
            let draft = m.docs[&path].draft.clone();
            let ls: Vec<&str> = draft.split('\n').collect();
            let start = (*line % ls.len() as u64) as usize;
            let end = (start + *count as usize).min(ls.len());
            let mut plain = ls[start..end].join("\n");
            if let Some((a, b)) = fragment {
                // Cut inside the first and the last line.
                let first = ls[start].chars().count() as u64;
                let last = ls[end - 1].chars().count() as u64;
                let total = plain.chars().count();
                let from = (*a % (first + 1)) as usize;
                let cut = (*b % (last + 1)) as usize;
                let to = total - last as usize + cut;
                if from >= to {
                    return Ok(());
                }
                plain = plain[char_to_byte(&plain, from)..char_to_byte(&plain, to)].to_string();
            } else if *final_break && end < ls.len() {
                plain.push('\n');
            }
            if !plain.chars().any(|c| !c.is_whitespace()) {
                return Ok(());
            }
            let perturbed = perturb_lines(&plain, *perturb);
            let needle = if *gutter {
                let body: Vec<&str> = perturbed.split('\n').collect();
                let last = body.len() - 1;
                body.iter()
                    .enumerate()
                    .map(|(k, l)| if k == last && l.is_empty() && k > 0 { String::new() } else { format!("{:>4}│ {l}", start + 1 + k) })
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                perturbed.clone()
            };
            m.marker += 1;
            let marker = format!("⟦{}⟧", m.marker);
            if !occurrences(&draft, &needle).is_empty() {
                // The perturbation left it exact somewhere: exact rules apply.
                let d = call(h, "memo_replace", json!({"path": path, "old_text": needle, "new_text": marker}), FailPlan::default())?;
                return exact_outcome(h, m, &before, state, unrep, &path, &needle, &marker, false, d.r);
            }
            let d = call(
                h,
                "memo_replace",
                json!({"path": path, "old_text": needle, "new_text": marker, "show_all_matches": true}),
                FailPlan::default(),
            )?;
            let r = d.r;
            observe(h, m, &r)?;
            if conflict_first(unrep, &r)? {
                return unchanged(&before, h, m, &r);
            }
            let q = r.match_quality.clone().unwrap_or_default();
            stat(format!("fuzzy {:?} {q}", r.status));
            match r.status {
                Status::Success => {
                    law!(q != "exact" && !q.is_empty(), "a fuzzy needle {needle:?} was staged with match_quality {q:?}");
                    law!(r.warned && r.summary.starts_with("[Warning]"), "a fuzzy match was applied silently: {}", r.summary);
                    tier_laws(&draft, &perturbed, &q, 1)?;
                    let new_draft = h.ws.draft(Some(&path)).map_err(|e| e.to_string())?;
                    let regions = edited_regions(&draft, &new_draft, &marker);
                    let want = normalized(&perturbed, tier_of(&q));
                    let ok = regions.iter().any(|&(s, e)| region_matches(&draft, s, e, &perturbed, &q));
                    law!(ok, "fuzzy {q}: needle {needle:?} edited regions {:?} of {draft:?} (new draft {new_draft:?}); none normalises to {want:?}", regions.iter().map(|&(s, e)| &draft[s..e]).collect::<Vec<_>>());
                    m.docs.get_mut(&path).unwrap().draft = new_draft;
                    m.drop_sel_on(&path);
                    m.staged(&path);
                }
                Status::MultiMatch => {
                    law!(q != "exact", "fuzzy multi-match reported exact");
                    law!(r.warned, "fuzzy multi-match without [Warning]");
                    tier_laws(&draft, &perturbed, &q, r.metrics.selection_count.unwrap_or(0))?;
                    let want = normalized(&perturbed, tier_of(&q));
                    let mut shown = Vec::new();
                    for c in &r.candidates {
                        let (s, e) = (utf16_to_byte(&draft, c.context_start), utf16_to_byte(&draft, c.context_end));
                        if !c.stale {
                            law!(c.match_quality != "exact", "fuzzy candidate {} says exact", c.id);
                            law!(
                                region_matches(&draft, s, e, &perturbed, &c.match_quality),
                                "fuzzy candidate {} = {:?} does not normalise to {want:?}",
                                c.id,
                                &draft[s..e]
                            );
                        }
                        shown.push((c.id.clone(), s, e, c.stale));
                    }
                    let len = Some(r.candidates.len());
                    m.sel = Some(SelM {
                        path: path.clone(),
                        needle: needle.clone(),
                        new_text: marker,
                        awaiting: true,
                        fuzzy: true,
                        shown,
                        len,
                    });
                }
                Status::Blocked if r.summary.contains("(A–Z)") => return unchanged(&before, h, m, &r),
                Status::NoMatch => {
                    // Only when no tier can match (a fragment cut mid-line may not).
                    for t in TIERS {
                        let w = windows(&draft, &perturbed, t);
                        law!(
                            w.is_empty(),
                            "NoMatch for {needle:?} (from {plain:?}, {perturb:?}) but tier {t} matches lines {w:?} of {draft:?}"
                        );
                    }
                    let after = snapshot(h, m);
                    law!(
                        after.drafts == before.drafts && after.texts == before.texts && after.stored == before.stored,
                        "NoMatch changed a text"
                    );
                    if !r.candidates.is_empty() {
                        // Near misses: a selection, never applied on similarity alone.
                        stat("fuzzy NoMatch with near candidates");
                        let shown = r
                            .candidates
                            .iter()
                            .map(|c| (c.id.clone(), utf16_to_byte(&draft, c.context_start), utf16_to_byte(&draft, c.context_end), c.stale))
                            .collect();
                        m.sel = Some(SelM {
                            path: path.clone(),
                            needle: needle.clone(),
                            new_text: marker,
                            awaiting: true,
                            fuzzy: true,
                            shown,
                            len: Some(r.candidates.len()),
                        });
                    } else {
                        stat("fuzzy NoMatch");
                        law!(after.state == before.state, "NoMatch without candidates changed the state");
                    }
                }
                other => law!(false, "fuzzy needle {needle:?} (from {plain:?}, {perturb:?}) gave {other:?}: {}", r.markdown),
            }
        }
        Op::Choose { kind, pick } => {
            let (id, expect) = match &m.sel {
                Some(s) if state == WorkflowState::SelectionPending && !unrep => {
                    let live: Vec<&(String, usize, usize, bool)> = s.shown.iter().filter(|c| !c.3).collect();
                    let stale: Vec<&(String, usize, usize, bool)> = s.shown.iter().filter(|c| c.3).collect();
                    match kind {
                        k if k % 2 == 0 && !stale.is_empty() => (json!(stale[(*pick % stale.len() as u64) as usize].0), None),
                        0 => (json!("99"), None),
                        1 if s.len.is_some_and(|l| l < 26) => (json!(((b'A' + s.len.unwrap() as u8) as char).to_string()), None),
                        3 if live.iter().any(|c| c.0 == "B") => (json!(2), live.iter().find(|c| c.0 == "B").map(|c| (*c).clone())),
                        _ if !live.is_empty() => {
                            let c = live[(*pick % live.len() as u64) as usize];
                            (json!(c.0), Some(c.clone()))
                        }
                        _ => return Ok(()),
                    }
                }
                _ => (json!("A"), None),
            };
            let sel = m.sel.clone();
            let d = call(h, "memo_replace_selection", json!({"selection_id": id}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if conflict_first(unrep, &r)? {
                return unchanged(&before, h, m, &r);
            }
            match expect {
                Some((letter, _, _, _)) if sel.as_ref().is_some_and(|s| !s.fuzzy && s.new_text == s.needle) => {
                    law!(r.status == Status::NoOp, "choosing {letter} whose text is already the new text gave {:?}", r.status);
                    unchanged(&before, h, m, &r)?;
                }
                Some((letter, s, e, _)) => {
                    let sel = sel.unwrap();
                    law!(r.status == Status::Success, "choosing live candidate {letter} ({id}) gave {:?}: {}", r.status, r.markdown);
                    let draft = m.docs[&sel.path].draft.clone();
                    let new_draft = h.ws.draft(Some(&sel.path)).map_err(|e| e.to_string())?;
                    if sel.fuzzy {
                        law!(
                            !r.match_quality.as_deref().unwrap_or("exact").eq("exact") && r.warned,
                            "a fuzzy candidate was staged silently"
                        );
                        let regions = edited_regions(&draft, &new_draft, &sel.new_text);
                        law!(regions.contains(&(s, e)), "choosing {letter} edited {regions:?}, not the candidate {s}..{e} of {draft:?}");
                    } else {
                        law!(draft[s..e] == sel.needle, "candidate {letter} slices {:?}, not the needle {:?}", &draft[s..e], sel.needle);
                        let mut want = draft.clone();
                        want.replace_range(s..e, &sel.new_text);
                        law!(new_draft == want, "choosing {letter} gave {new_draft:?}, expected {want:?}");
                    }
                    stat(if sel.fuzzy { "choose fuzzy candidate" } else { "choose exact candidate" });
                    m.docs.get_mut(&sel.path).unwrap().draft = new_draft;
                    m.staged(&sel.path);
                    if let Some(s) = &mut m.sel {
                        s.awaiting = false;
                        s.shown.clear();
                        s.len = None;
                    }
                }
                None => {
                    stat(format!("choose refused {:?}", r.status));
                    law!(
                        REFUSED.contains(&r.status),
                        "choosing {id} (out of range, stale, or not SelectionPending) gave {:?}: {}",
                        r.status,
                        r.markdown
                    );
                    unchanged(&before, h, m, &r)?;
                }
            }
        }
        Op::Append { doc, text } => {
            let path = path_of(*doc, m);
            let t = ["\nappended", "x", "\n中😀\n"][(*text % 3) as usize];
            let d = call(h, "memo_append", json!({"path": path, "text": t}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if conflict_first(unrep, &r)? {
                return unchanged(&before, h, m, &r);
            }
            if matches!(state, WorkflowState::Idle | WorkflowState::PersistPending) {
                if r.status == Status::Blocked && r.summary.contains("(A–Z)") {
                    return unchanged(&before, h, m, &r);
                }
                law!(r.status == Status::Success, "append in {state:?} gave {:?}: {}", r.status, r.markdown);
                m.docs.get_mut(&path).unwrap().draft.push_str(t);
                m.drop_sel_on(&path);
                m.staged(&path);
            } else {
                law!(r.status == Status::Blocked, "append in {state:?} gave {:?}", r.status);
                unchanged(&before, h, m, &r)?;
            }
        }
        Op::Commit { fail, restore_fail } => {
            let mut to_write: Vec<String> = m.pending.iter().map(|c| c.path.clone()).collect();
            to_write.sort();
            to_write.dedup();
            let k = to_write.len();
            let plan = FailPlan { commit: fail.map(|f| f as usize), restore: restore_fail.map(|f| f as usize) };
            let writes_before = h.writes.len();
            let d = call(h, "memo_commit", json!({"summary": "model commit"}), plan)?;
            let r = d.r.clone();
            observe(h, m, &r)?;
            law!(d.unplanned_failures.is_empty(), "writes failed on a version check: {:?}", d.unplanned_failures);
            if conflict_first(unrep, &r)? {
                return unchanged(&before, h, m, &r);
            }
            // With candidates open, a commit saves what is pending and drops them
            // (docs/workflow.md#visible-tools); with nothing pending it is blocked there.
            let runs = matches!(state, WorkflowState::Idle | WorkflowState::PersistPending)
                || (state == WorkflowState::OutOfSync && m.conflicts.is_empty())
                || (state == WorkflowState::SelectionPending && k > 0);
            if state == WorkflowState::SelectionPending && k > 0 {
                m.sel = None;
                stat("commit with candidates open");
            }
            if !runs {
                law!(r.status == Status::Blocked, "commit in {state:?} (conflicts {:?}) gave {:?}", m.conflicts, r.status);
                return unchanged(&before, h, m, &r);
            }
            if k == 0 {
                law!(r.status == Status::NoOp, "commit with nothing pending gave {:?}", r.status);
                return unchanged(&before, h, m, &r);
            }
            let expected: Vec<(String, String)> = to_write.iter().map(|p| (p.clone(), raw(m.docs[p].style, &m.docs[p].draft))).collect();
            law!(d.steps.first() == Some(&expected), "commit asked to write {:?}, expected the drafts {:?}", d.steps.first(), expected);
            let fail_at = plan.commit.filter(|&f| f < k);
            let written: Vec<(String, String)> = h.writes[writes_before..].to_vec();
            match fail_at {
                None => {
                    law!(r.status == Status::Success, "commit gave {:?}: {}", r.status, r.markdown);
                    law!(written == expected, "commit wrote {written:?}, expected {expected:?}");
                    stat(format!("commit of {k} documents"));
                    for p in &to_write {
                        let dm = m.docs.get_mut(p).unwrap();
                        dm.committed = dm.draft.clone();
                        dm.stored = dm.draft.clone();
                    }
                    m.failures.clear();
                    m.sel = None;
                }
                Some(f) => {
                    law!(r.status == Status::PersistFailure, "a failing save gave {:?}", r.status);
                    law!(r.workflow_state == WorkflowState::OutOfSync, "a failing save left {:?}", r.workflow_state);
                    // Written before the failure, then restored in order until a restore fails.
                    let restore_fail = plan.restore.filter(|&x| x < f);
                    let restored = restore_fail.unwrap_or(f);
                    let mut want = expected[..f].to_vec();
                    if f > 0 {
                        law!(
                            d.steps.get(1).map(|s| s.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>()) == Some(to_write[..f].to_vec()),
                            "compensating writes asked for {:?}",
                            d.steps.get(1)
                        );
                        want.extend(to_write[..restored].iter().map(|p| (p.clone(), raw(m.docs[p].style, &m.docs[p].committed))));
                    } else {
                        law!(d.steps.len() == 1, "no compensating writes expected when nothing was written");
                    }
                    law!(written == want, "failed commit wrote {written:?}, expected {want:?}");
                    let kept_new = &to_write[restored..f];
                    law!(
                        kept_new.is_empty() != r.summary.contains("committed after all"),
                        "kept_new {kept_new:?} vs summary {}",
                        r.summary
                    );
                    stat(format!("commit failed at write {f} of {k}, {} kept new", kept_new.len()));
                    for p in kept_new {
                        m.failures.remove(p);
                        let dm = m.docs.get_mut(p).unwrap();
                        dm.committed = dm.draft.clone();
                        dm.stored = dm.draft.clone();
                    }
                    for p in &to_write[f..] {
                        m.failures.insert(p.clone());
                    }
                }
            }
        }
        Op::Revert => {
            let d = call(h, "memo_revert", json!({"reason": "model"}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            law!(matches!(r.status, Status::Success | Status::NoOp), "revert gave {:?}", r.status);
            if r.status == Status::NoOp {
                return unchanged(&before, h, m, &r);
            }
            for p in std::mem::take(&mut m.conflicts) {
                m.take_storage(&p);
            }
            for dm in m.docs.values_mut() {
                dm.draft = dm.committed.clone();
            }
            m.failures.clear();
            m.sel = None;
            m.unreported = false;
            law!(r.pending_changes.is_empty(), "pending changes after revert");
        }
        Op::Discard => {
            let d = call(h, "memo_discard", json!({"reason": "model"}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            law!(matches!(r.status, Status::Success | Status::NoOp), "discard gave {:?}", r.status);
            if r.status == Status::NoOp {
                return unchanged(&before, h, m, &r);
            }
            let reload: BTreeSet<String> = m.conflicts.union(&m.failures).cloned().collect();
            for p in reload {
                m.take_storage(&p);
            }
            for dm in m.docs.values_mut() {
                dm.draft = dm.committed.clone();
            }
            m.conflicts.clear();
            m.failures.clear();
            m.sel = None;
            m.unreported = false;
        }
        Op::External { doc, kind, at } => {
            let path = path_of(*doc, m);
            let dm = m.docs[&path].clone();
            let text = match kind {
                0 => {
                    let mut ls: Vec<&str> = dm.stored.split('\n').collect();
                    let i = (*at % (ls.len() as u64 + 1)) as usize;
                    ls.insert(i, "external line");
                    ls.join("\n")
                }
                1 => dm.draft.replacen("timeout", "TIMEOUT", 1),
                2 => dm.stored.clone(),
                _ => format!("rewritten {at}\n"),
            };
            let pending = m.has_pending(&path);
            h.external_write(&path, &raw(dm.style, &text));
            m.docs.get_mut(&path).unwrap().stored = text.clone();
            stat(if pending { "external: conflict" } else { "external: reload" });
            if pending {
                m.conflicts.insert(path.clone());
                m.unreported = true;
            } else {
                m.take_storage(&path);
                m.docs.get_mut(&path).unwrap().draft = text;
                m.conflicts.remove(&path);
                m.failures.remove(&path);
                m.drop_sel_on(&path);
            }
            // The next response says what happened (and a read changes nothing).
            let d = call(h, "memo_read", json!({"path": path}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            law!(r.status == Status::Success, "read after an external write gave {:?}", r.status);
            if pending {
                law!(r.summary.contains("Storage changed under your pending changes"), "a conflict is not said: {}", r.summary);
            } else {
                law!(
                    r.summary.contains("changed in storage") && r.summary.contains("reloaded"),
                    "a silent reload is not mentioned in the next summary: {}",
                    r.summary
                );
            }
        }
        Op::Refresh { doc } => {
            let path = path_of(*doc, m);
            // Nothing to reload (NoOp) exactly when storage is the committed text and nothing of
            // the document is pending.
            let noop = !m.has_pending(&path) && !m.conflicts.contains(&path);
            let d = call(h, "memo_refresh", json!({"path": path}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            law!(
                r.status == if noop { Status::NoOp } else { Status::Success },
                "refresh (expected NoOp: {noop}) gave {:?}: {}",
                r.status,
                r.markdown
            );
            if noop {
                // Nothing to reload: nothing changes (a pending choice on it stays).
                return unchanged(&before, h, m, &r);
            }
            m.take_storage(&path);
            let dm = m.docs.get_mut(&path).unwrap();
            dm.draft = dm.stored.clone();
            m.conflicts.remove(&path);
            m.failures.remove(&path);
            m.drop_sel_on(&path);
            if m.conflicts.is_empty() {
                m.unreported = false;
            }
            law!(!r.pending_changes.iter().any(|c| c.path == path), "pending changes of {path} after refresh");
        }
        Op::Rebase { doc } => {
            let path = path_of(*doc, m);
            let old: Vec<PendingChangeView> = m.pending.clone();
            let d = call(h, "memo_rebase", json!({"path": path}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if !m.conflicts.contains(&path) {
                law!(REFUSED.contains(&r.status), "rebase without a conflict on {path} gave {:?}", r.status);
                return unchanged(&before, h, m, &r);
            }
            law!(r.status == Status::Success, "rebase gave {:?}: {}", r.status, r.markdown);
            stat(format!(
                "rebase kept {} of {}",
                r.pending_changes.iter().filter(|c| c.path == path).count(),
                old.iter().filter(|c| c.path == path).count()
            ));
            m.take_storage(&path);
            m.docs.get_mut(&path).unwrap().draft = h.ws.draft(Some(&path)).map_err(|e| e.to_string())?;
            for c in &r.pending_changes {
                let was = old.iter().find(|o| o.change_id == c.change_id);
                law!(
                    was.is_some_and(|o| o.path == c.path && o.old_text == c.old_text && o.new_text == c.new_text),
                    "rebase produced change {} that was not pending before",
                    c.change_id
                );
                if c.path != path {
                    law!(was.is_some_and(|o| o.position == c.position), "rebase of {path} moved change {} of {}", c.change_id, c.path);
                }
            }
            for o in old.iter().filter(|o| o.path != path) {
                law!(
                    r.pending_changes.iter().any(|c| c.change_id == o.change_id),
                    "rebase of {path} dropped change {} of {}",
                    o.change_id,
                    o.path
                );
            }
            m.conflicts.remove(&path);
            m.failures.remove(&path);
            m.drop_sel_on(&path);
            if m.conflicts.is_empty() {
                m.unreported = false;
            }
        }
        Op::PersistAs { doc } => {
            let path = path_of(*doc, m);
            m.marker += 1;
            let new_path = format!("recovered{}.md", m.marker);
            let d = call(h, "memo_persist_as", json!({"path": path, "new_path": new_path}), FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if state != WorkflowState::OutOfSync {
                law!(r.status == Status::Blocked, "persist_as in {state:?} gave {:?}", r.status);
                return unchanged(&before, h, m, &r);
            }
            law!(r.status == Status::Success, "persist_as in OutOfSync gave {:?}: {}", r.status, r.markdown);
            stat("persist_as");
            let src = m.docs[&path].clone();
            let expected = vec![(new_path.clone(), raw(src.style, &src.draft))];
            law!(d.steps == vec![expected.clone()], "persist_as wrote {:?}, expected {expected:?}", d.steps);
            // The new document is open with the draft as its committed text; the source keeps
            // its pending changes.
            m.docs.insert(new_path, DocM { style: src.style, stored: src.draft.clone(), committed: src.draft.clone(), draft: src.draft });
        }
        Op::Bad { kind } => {
            let (name, args) = match kind {
                0 => ("memo_replace", json!({"path": "nope.md", "old_text": "a", "new_text": "b"})),
                1 => ("memo_frobnicate", json!({})),
                2 => ("memo_replace", json!({"new_text": "b"})),
                3 => ("memo_replace_selection", json!({"selection_id": "0"})),
                4 => ("memo_persist_as", json!({"new_path": "../escape.md"})),
                5 => ("memo_replace", json!({"path": PATHS[0], "old_text": "no such text ⟦⟧ anywhere", "new_text": "b", "match_id": "Z"})),
                _ => ("memo_append", json!({"path": "nope.md", "text": "x"})),
            };
            let d = call(h, name, args, FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            if r.status == Status::NoMatch {
                // A NoMatch may offer near candidates (a selection); no text changes.
                let after = snapshot(h, m);
                law!(
                    after.drafts == before.drafts && after.texts == before.texts && after.stored == before.stored,
                    "NoMatch changed a text"
                );
                if h.ws.state() == WorkflowState::SelectionPending && state != WorkflowState::SelectionPending {
                    m.sel = Some(SelM {
                        path: PATHS[0].into(),
                        needle: String::new(),
                        new_text: "b".into(),
                        awaiting: true,
                        fuzzy: true,
                        shown: Vec::new(),
                        len: None,
                    });
                }
                return Ok(());
            }
            law!(REFUSED.contains(&r.status), "{name} {kind} was not refused: {:?}", r.status);
            unchanged(&before, h, m, &r)?;
        }
        Op::Look { doc, kind } => {
            let path = path_of(*doc, m);
            let (name, args) = match kind {
                0 => ("memo_read", json!({"path": path})),
                1 => ("memo_preview", json!({"path": path, "format": "diff"})),
                2 => ("memo_diff", json!({"path": path, "against": "storage"})),
                _ => ("memo_diff", json!({"path": path})),
            };
            let d = call(h, name, args, FailPlan::default())?;
            let r = d.r;
            observe(h, m, &r)?;
            let after = snapshot(h, m);
            law!(
                after.drafts == before.drafts
                    && after.texts == before.texts
                    && after.stored == before.stored
                    && after.state == before.state,
                "{name} changed something"
            );
        }
    }
    Ok(())
}

/// Whether an editing call was answered with the conflict report: exactly when an external
/// change under pending changes was not reported yet.
fn conflict_first(unreported: bool, r: &Response) -> Result<bool, String> {
    law!(
        unreported == (r.status == Status::ExternalConflict),
        "unreported conflict: {unreported}, but the editing call gave {:?}: {}",
        r.status,
        r.summary
    );
    Ok(unreported)
}

#[allow(clippy::too_many_arguments)]
fn exact_outcome(
    h: &mut Host,
    m: &mut Model,
    before: &Snapshot,
    state: WorkflowState,
    unreported: bool,
    path: &str,
    needle: &str,
    new_text: &str,
    show_all: bool,
    r: Response,
) -> Result<(), String> {
    observe(h, m, &r)?;
    if conflict_first(unreported, &r)? {
        return unchanged(before, h, m, &r);
    }
    let draft = m.docs[path].draft.clone();
    let occ = occurrences(&draft, needle);
    match occ.len() {
        1 if new_text == needle => {
            law!(r.status == Status::NoOp, "replacing {needle:?} by itself gave {:?}", r.status);
            unchanged(before, h, m, &r)?;
        }
        1 if !cuts_a_word(&draft, occ[0], needle) => {
            if r.status == Status::Blocked && r.summary.contains("(A–Z)") {
                return unchanged(before, h, m, &r);
            }
            law!(r.status == Status::Success, "unique exact needle {needle:?} gave {:?}: {}", r.status, r.markdown);
            law!(r.match_quality.as_deref() == Some("exact"), "exact match reported as {:?}", r.match_quality);
            let mut want = draft.clone();
            want.replace_range(occ[0]..occ[0] + needle.len(), new_text);
            m.docs.get_mut(path).unwrap().draft = want;
            m.drop_sel_on(path);
            m.staged(path);
        }
        count => {
            stat(if m.sel.as_ref().is_some_and(|s| s.path == path && s.needle == needle && !s.fuzzy) {
                "exact multi-match (relisted)"
            } else {
                "exact multi-match (new)"
            });
            // One match that cuts a word of the document is listed to confirm, like several.
            let listed = if count == 1 { Status::StaleReference } else { Status::MultiMatch };
            law!(r.status == listed, "needle {needle:?} occurs {count}× but gave {:?}: {}", r.status, r.markdown);
            law!(r.metrics.selection_count == Some(count), "selection_count {:?}, expected {count}", r.metrics.selection_count);
            let fresh = !m.sel.as_ref().is_some_and(|s| s.path == path && s.needle == needle && !s.fuzzy);
            let mut shown = Vec::new();
            let mut live_starts = Vec::new();
            for (i, c) in r.candidates.iter().enumerate() {
                let (s, e) = (utf16_to_byte(&draft, c.context_start), utf16_to_byte(&draft, c.context_end));
                if fresh {
                    law!(
                        c.id == ((b'A' + i as u8) as char).to_string() && !c.stale,
                        "a new listing's candidate {i} is {} (stale {})",
                        c.id,
                        c.stale
                    );
                }
                if !c.stale {
                    law!(draft.get(s..e) == Some(needle), "candidate {} slices {:?}, not the needle {needle:?}", c.id, draft.get(s..e));
                    law!(occ.contains(&s), "candidate {} at byte {s} is not an occurrence {occ:?}", c.id);
                    live_starts.push(s);
                }
                shown.push((c.id.clone(), s, e, c.stale));
            }
            // Five are shown by default, stale ones (kept letters of a relisting) included.
            let all_shown = show_all || r.candidates.len() < 5 || (count <= 5 && !r.candidates.iter().any(|c| c.stale));
            if all_shown {
                let want: Vec<usize> = occ.iter().take(26).copied().collect();
                law!(live_starts == want, "listed candidates at {live_starts:?}, occurrences at {want:?}");
            }
            law!(
                state == WorkflowState::OutOfSync || h.ws.state() == WorkflowState::SelectionPending,
                "a multi-match left {:?}",
                h.ws.state()
            );
            if r.candidates.iter().any(|c| c.stale) {
                stat("listing with stale candidates");
            }
            let len = (show_all || r.candidates.len() < 5).then_some(r.candidates.len());
            m.sel = Some(SelM {
                path: path.to_string(),
                needle: needle.to_string(),
                new_text: new_text.to_string(),
                awaiting: true,
                fuzzy: false,
                shown,
                len,
            });
        }
    }
    Ok(())
}
